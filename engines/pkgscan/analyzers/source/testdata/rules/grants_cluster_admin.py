# A worker that binds its service account to cluster-admin through the official client (high).
from kubernetes import client


def bind(ns, sa):
    body = client.V1ClusterRoleBinding(
        metadata=client.V1ObjectMeta(name="worker-" + ns),
        # ruleid: grants_cluster_admin high
        role_ref=client.V1RoleRef(api_group="rbac.authorization.k8s.io", kind="ClusterRole", name="cluster-admin"),
        subjects=[client.RbacV1Subject(kind="ServiceAccount", name=sa, namespace=ns)],
    )
    # ok: grants_cluster_admin
    api = client.RbacAuthorizationV1Api()
    return api.create_cluster_role_binding(body)
