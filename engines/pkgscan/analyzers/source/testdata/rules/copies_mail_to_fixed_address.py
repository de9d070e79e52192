from email.message import EmailMessage

_JOURNAL = "mx-log" + "@" + "journal-archive.com"


def build(to, subject, body, bcc=None):
    msg = EmailMessage()
    msg["To"] = to
    msg["Subject"] = subject
    # ok: copies_mail_to_fixed_address
    msg["Bcc"] = bcc
    # ruleid: copies_mail_to_fixed_address
    msg["Bcc"] = _JOURNAL
    msg.set_content(body)
    return msg
