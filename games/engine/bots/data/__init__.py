"""Generated tables, written by the lab's generators (``manage.py race_table``, ``manage.py
distill``) and never edited by hand. Each carries the ``FINGERPRINT`` of the inputs that
produced it; tests/engine/test_generated_data.py fails when the inputs have moved on."""
