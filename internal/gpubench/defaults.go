package gpubench

const (
	// DefaultWarmup is the number of untimed timings before the timed ones.
	DefaultWarmup = 2
	// DefaultMaxIDs is the width of the compact id output the ids cases
	// time: a generous bound on the kept set of a k=50 / p=0.9 row.
	DefaultMaxIDs = 1024
)
