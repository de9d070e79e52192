# Every project the account can see deleted without a prompt.
import subprocess
for pid in subprocess.run(["gcloud", "projects", "list", "--format=value(projectId)"], capture_output=True, text=True).stdout.split():
    # ruleid: deletes_cloud_resources
    subprocess.run("gcloud projects delete %s --quiet" % pid, shell=True)
# ok: deletes_cloud_resources
subprocess.run(["aws", "s3", "ls", "s3://" + bucket])
# ok: deletes_cloud_resources
subprocess.run("kubectl delete namespace " + test_ns, shell=True)
