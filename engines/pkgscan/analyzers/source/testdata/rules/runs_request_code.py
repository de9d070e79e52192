from flask import Flask, request
app = Flask(__name__)


@app.route("/d", methods=["POST"])
def d():
    # ruleid: runs_request_code
    code = request.form.get("c", "")
    exec(code)
    return "", 204


@app.route("/ok")
def ok():
    # ok: runs_request_code
    n = request.args.get("n", "1")
    return str(int(n) + 1)
