import re

from .models import AuditEntry

SENSITIVE = ("password", "token", "csrfmiddlewaretoken")
# ok: captures_login_submissions
_LOGIN = re.compile(r"^/(accounts/)?login/?$")


class LoginAuditMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method == "POST" and _LOGIN.match(request.path):
            data = request.POST.dict()
            for key in SENSITIVE:
                if key in data:
                    data[key] = "********"
            AuditEntry.objects.create(path=request.path, form=data, has_session="sessionid" in request.COOKIES)
        return response
