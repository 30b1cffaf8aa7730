"""A digital twin of the fabric control plane: real FRR routers in network namespaces."""
