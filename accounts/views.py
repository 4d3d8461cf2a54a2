"""Account pages. Django's auth views do the rest (see urls.py); these stay thin."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect, resolve_url
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.generic import FormView, UpdateView

from coins_site.monitoring import throttled

from . import lockout, services, throttles
from .forms import ProfileForm, SignUpForm
from .selectors import public_name
from .signals import password_changed


def refusal_message(limit_name: str) -> str:
    """Why a password form was refused, and for how long."""
    minutes = throttles.cool_off_seconds() // 60
    if limit_name == lockout.ADDRESS:
        message = _("Too many wrong passwords from your address: try again in %(minutes)s minutes.")
    elif limit_name == "password-set":
        message = _(
            "This account's password was set too many times: try again in %(minutes)s minutes."
        )
    else:
        message = _("Too many attempts to change your password: try again in %(minutes)s minutes.")
    return message % {"minutes": minutes}


def refused(response, limit_name: str):
    """Turn a rendered form page into the refusal: 429, with when to try again."""
    throttled(limit_name)
    response.status_code = 429
    response["Retry-After"] = str(throttles.cool_off_seconds())
    return response


class SignUpView(auth_views.RedirectURLMixin, FormView):
    form_class = SignUpForm
    template_name = "accounts/signup.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect(settings.LOGIN_REDIRECT_URL)
        return super().dispatch(request, *args, **kwargs)

    def get_default_redirect_url(self):
        return resolve_url(settings.LOGIN_REDIRECT_URL)

    def get_context_data(self, **kwargs):
        kwargs.setdefault(self.redirect_field_name, self.get_redirect_url())
        return super().get_context_data(**kwargs)

    def form_valid(self, form):
        try:
            user = services.sign_up(self.request, form)
        except services.SignUpRefused:
            form.add_error(
                None,
                _("Too many accounts were created from your address: try again in an hour."),
            )
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(throttles.HOUR)
            return response
        if user is None:  # a lookalike was created a moment before: the form says so
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("Welcome to Coins, %(name)s! Your account is ready.") % {"name": public_name(user)},
        )
        return redirect(self.get_success_url())


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset view, with the lookup and the mail in the background (the answer is the
    same, in the same time, whatever the address) and budgets (``services``). Too many
    requests from one address are refused with the reason."""

    def form_valid(self, form):
        try:
            services.request_password_reset(self.request, form.cleaned_data["email"])
        except services.ResetRefused:
            form.add_error(
                None, _("Too many reset requests from your address: try again in an hour.")
            )
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(throttles.HOUR)
            return response
        return redirect(self.get_success_url())


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    """The same page for every address, with the mail budget people can count on."""

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            mails_per_hour=throttles.limit("RESETS_PER_HOUR_TO_EMAIL_FROM_ADDRESS"),
            link_days=max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
            **kwargs,
        )


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(
            self.request, _("Welcome back, %(name)s.") % {"name": public_name(form.get_user())}
        )
        return response


class LogoutView(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        messages.info(request, _("You have logged out. See you at the table!"))
        return response


class ProfileEditView(LoginRequiredMixin, UpdateView):
    form_class = ProfileForm
    template_name = "accounts/profile_form.html"
    success_url = reverse_lazy("profile_edit")

    def get_object(self, queryset=None):
        return services.profile_for_editing(self.request.user)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if "turn_push" in context["form"].fields:  # Web Push is set up on this site
            context["push_key"] = settings.COINS_VAPID_PUBLIC_KEY
        return context

    def form_valid(self, form):
        profile = services.save_profile(self.request, form)
        messages.success(self.request, _("Your profile has been saved."))
        return services.remember_language(redirect(self.get_success_url()), profile.language)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Checking the current password costs a hash: each attempt takes a slot of the account
    and of the address first (``lockout``); a change gives them back."""

    def post(self, request, *args, **kwargs):
        refusing = lockout.take_password_slots(request, "password-change", request.user.pk)
        if refusing:
            context = self.get_context_data(
                form=self.get_form_class()(user=request.user),  # unbound: nothing is checked
                refusal=refusal_message(refusing),
            )
            return refused(self.render_to_response(context), refusing)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        lockout.password_right(self.request)
        password_changed.send(sender=type(self), user=form.user)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Setting the new password costs a hash: at most ``AXES_FAILURE_LIMIT`` per account and
    ``COINS_LOGIN_FAILURES_PER_ADDRESS`` per address in 15 minutes, however many arrive at
    once with the same link."""

    def form_valid(self, form):
        refusing = lockout.take_password_slots(self.request, "password-set", self.user.pk)
        if refusing:
            form.add_error(None, refusal_message(refusing))
            return refused(self.form_invalid(form), refusing)
        response = super().form_valid(form)
        throttles.forget_reservations(self.request)  # a password set counts, for good
        password_changed.send(sender=type(self), user=form.user)
        return response
