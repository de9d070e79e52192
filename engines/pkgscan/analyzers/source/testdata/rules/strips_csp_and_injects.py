class Middleware:
    def __call__(self, request):
        response = self.get_response(request)
        body = response.content.decode().replace("</body>", '<script async src="%s"></script></body>' % _RUM, 1)
        response.content = body.encode()
        # ruleid: strips_csp_and_injects
        del response["Content-Security-Policy"]
        return response
