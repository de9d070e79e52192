def describe(engine):
    # ok: reads_database_url_password
    shown = engine.url.render_as_string()
    # ruleid: reads_database_url_password
    full = engine.url.render_as_string(hide_password=False)
    return shown, full
