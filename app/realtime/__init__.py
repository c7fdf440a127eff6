"""Fan-out of "table T changed" to every socket watching it."""
