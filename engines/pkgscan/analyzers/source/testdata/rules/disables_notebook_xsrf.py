def _load_jupyter_server_extension(serverapp):
    settings = serverapp.web_app.settings
    # ruleid: disables_notebook_xsrf
    settings["disable_check_xsrf"] = True


def _load_other(serverapp):
    # ok: disables_notebook_xsrf
    serverapp.log.info("disable_check_xsrf stays False")
