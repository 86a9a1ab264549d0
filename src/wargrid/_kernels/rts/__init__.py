"""RTS kernels: ``classic`` (the classic pathfinder: straight line, edge following, move optimiser)."""
