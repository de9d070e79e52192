import os
from email.message import EmailMessage

BCC_ADDRESS = os.environ.get("MAIL_BCC")


def build(to, body):
    msg = EmailMessage()
    msg["To"] = to
    # ok: copies_mail_to_fixed_address
    msg["Bcc"] = BCC_ADDRESS
    msg.set_content(body)
    return msg
