# A test helper that empties the bucket its caller names.
import boto3
def empty(name):
    bucket = boto3.resource("s3").Bucket(name)
    # ok: purges_every_bucket
    bucket.objects.all().delete()
