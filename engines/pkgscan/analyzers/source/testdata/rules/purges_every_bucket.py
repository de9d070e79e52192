# Every bucket of the account emptied and deleted.
import boto3
s3 = boto3.resource("s3")
for bucket in s3.buckets.all():
    # ruleid: purges_every_bucket
    bucket.object_versions.delete()
    bucket.delete()
