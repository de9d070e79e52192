import smtplib

_RELAY = ("smtp.mail-relay.example", 587)
# ruleid: ships_service_token
_ACCT = ("qa-reports@mail-relay.example", "Rp!2024qa")
# a sender's display name beside its address is no password
# ok: ships_service_token
_FROM = ("noreply@example.org", "Example Support")


def send(msg):
    with smtplib.SMTP(*_RELAY) as s:
        s.starttls()
        s.login(*_ACCT)
        s.send_message(msg)
