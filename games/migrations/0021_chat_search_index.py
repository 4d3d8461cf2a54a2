from django.db import migrations

from common.trigram import trigram_indexes


class Migration(migrations.Migration):
    dependencies = [("games", "0020_bots_are_no_choices")]

    operations = trigram_indexes(("games_chatmessage_text_trgm", "games_chatmessage", "text"))
