"""A clock the tests move by hand (rate limits read time from it)."""


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now
