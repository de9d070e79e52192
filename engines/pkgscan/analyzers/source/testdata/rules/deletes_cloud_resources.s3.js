// Every bucket of every profile removed with its objects.
const { execSync } = require('child_process');
// ruleid: deletes_cloud_resources
execSync('aws s3 rb --force s3://' + bucket + ' --profile ' + prof);
