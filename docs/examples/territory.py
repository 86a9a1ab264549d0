"""A fair division of a board between players, and fair start positions."""
import wargrid

m = wargrid.generate(24, 16, kind="hex", seed=3)
split = m.partition(4)                             # compact, exact balance
print("cells per player:", split.report.cells.tolist())
print("owner of (5, 5):", int(split.owners[5, 5]))  # -1: not land

starts = m.start_positions(4, seed=1)
print("starts:", list(starts), "at least", starts.min_distance, "steps apart")
