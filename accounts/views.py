"""Account pages. Django's auth views do the rest (see urls.py); these stay thin."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect, resolve_url
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.generic import FormView, UpdateView

from . import services, throttles
from .forms import ProfileForm, SignUpForm
from .selectors import public_name
from .signals import password_changed


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
        address = throttles.client_address(self.request)
        if throttles.peek("signup", address) >= throttles.limit("SIGNUPS_PER_HOUR"):
            form.add_error(
                None,
                _("Too many accounts were created from your address: try again in an hour."),
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        user = services.sign_up(self.request, form)
        throttles.count("signup", address)
        messages.success(
            self.request,
            _("Welcome to Coins, %(name)s! Your account is ready.") % {"name": public_name(user)},
        )
        return redirect(self.get_success_url())


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset view, throttled: too many requests from one address are refused with
    a reason; past the limit for one e-mail address no more mail is sent, and the page says
    the same as always (it never tells whether an address has an account)."""

    def form_valid(self, form):
        address = throttles.client_address(self.request)
        if throttles.count("reset-from", address) > throttles.limit("RESETS_PER_HOUR_FROM_ADDRESS"):
            form.add_error(
                None, _("Too many reset requests from your address: try again in an hour.")
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        email = form.cleaned_data["email"].strip().lower()
        if throttles.count("reset-to", email) > throttles.limit("RESETS_PER_HOUR_TO_EMAIL"):
            return redirect(self.get_success_url())
        return super().form_valid(form)


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

    def form_valid(self, form):
        profile = services.save_profile(self.request, form)
        messages.success(self.request, _("Your profile has been saved."))
        return services.remember_language(redirect(self.get_success_url()), profile.language)


class PasswordChangeView(auth_views.PasswordChangeView):
    def form_valid(self, form):
        response = super().form_valid(form)
        password_changed.send(sender=type(self), user=form.user)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        response = super().form_valid(form)
        password_changed.send(sender=type(self), user=form.user)
        return response
