# a cloud SDK's documentation of where instance credentials come from, with no address of the service to reach
# ok: takes_cloud_role_credentials
DOC = "credentials are read from /meta-data/iam/security-credentials/<role> on the instance"
