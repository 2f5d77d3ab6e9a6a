from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_seat_pending_draw"),
    ]

    operations = [
        migrations.RenameField(model_name="seat", old_name="pending_draw", new_name="pending"),
    ]
