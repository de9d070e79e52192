# a job runner: steps of jobs from the user's own server, polled on a fixed interval; the random pause is a retry's
# backoff, and a fixed command of its own goes to the shell
import random
import subprocess
import time

import requests


def run_forever(server, token):
    while True:
        try:
            job = requests.get(server + "/jobs/next", headers={"Authorization": token}, timeout=30).json()
        except requests.RequestException:
            time.sleep(5 + random.uniform(0, 5))
            continue
        for step in job.get("steps", []):
            # ok: beacon_runs_task_command
            subprocess.run(["bash", "-c", step["run"]], check=False)
        # ok: beacon_runs_task_command
        subprocess.run("git clean -fdx", shell=True)
        time.sleep(15)
