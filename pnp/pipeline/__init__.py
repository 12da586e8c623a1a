"""Check-then-build orchestration: stages, the incremental build record, worker processes."""
