"""What operators and load balancers read: ``/healthz``, ``/metrics`` and the table runners'
heartbeats (docs/operations.md)."""
