from django.db import migrations

from common.trigram import trigram_indexes


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_profile_is_bot"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = trigram_indexes(
        ("auth_user_username_trgm", "auth_user", "username"),
        ("auth_user_email_trgm", "auth_user", "email"),
        ("accounts_profile_display_name_trgm", "accounts_profile", "display_name"),
    )
