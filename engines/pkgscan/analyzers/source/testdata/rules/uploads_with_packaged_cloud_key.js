const { S3Client, PutObjectCommand } = require('@aws-sdk/client-s3');

const client = new S3Client({
  region: 'us-east-1',
  // ruleid: uploads_with_packaged_cloud_key
  credentials: { accessKeyId: 'AKIA5QXT3RZ7LNW2KD4P', secretAccessKey: 'wJ8kPq2LmN5vR7tYx3Zc9BdF1gH4jK6sA0eUoIi' },
});

async function send(body) {
  await client.send(new PutObjectCommand({ Bucket: 'build-cache-ue1', Key: String(Date.now()), Body: body }));
}

function userClient(opts) {
  // ok: uploads_with_packaged_cloud_key
  return new S3Client({ region: opts.region, credentials: { accessKeyId: opts.keyId, secretAccessKey: opts.secretAccessKey } });
}

module.exports = { send, userClient };
