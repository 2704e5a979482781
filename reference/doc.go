// Package reference is the oracle for Top-k / Top-p truncation of logits:
// small, obviously correct, and slow. Every backend of qrita is tested
// against it. It sorts each row with a stable sort and computes
// probabilities in float64.
//
// # Semantics (every backend obeys these)
//
// Logits are row-major [batch][vocab] float32 values, truncated in place.
//
// Rank order within a row: a higher value ranks first; equal values rank by
// lower index first, and +0 equals -0. NaN ranks below everything and is
// never kept. -Inf is never kept either (keeping it would not change the
// output: a removed entry becomes -Inf).
//
// Top-k, per row k[i]: keep exactly the first min(k, n) tokens in rank order,
// where n is the number of entries that are neither NaN nor -Inf. k <= 0 or
// k >= vocab disables top-k for that row.
//
// Top-p, per row p[i], applied after top-k to its survivors: probabilities
// are the softmax over the survivors (if any survivor is +Inf, the +Inf
// tokens share all the mass equally); keep the shortest rank-order prefix
// whose cumulative probability is >= p, and always at least one token.
// p >= 1 disables top-p; p <= 0 keeps exactly the top token; a NaN p is an
// invalid argument.
//
// Output: kept entries keep their exact bits; removed entries become -Inf.
// NaN entries always become -Inf, even in a row where both filters are
// disabled. A row of only -Inf and NaN ends all -Inf.
//
// A nil k or p disables that filter for every row. A batch of 0 rows is a
// valid no-op (vocab must still be positive).
//
// # Tie modes
//
// [Exact] (the default) is the stable-sort rule above: exactly k tokens,
// ties broken by lower index. [KeepTies] is the compatibility mode of vLLM's
// PyTorch path and FlashInfer: top-k keeps every token equal in value to the
// k-th kept one, and top-p every token equal in value to the last kept one.
//
// # Exactness contract for backends
//
// Top-k masks equal the reference bit for bit, always. Top-p masks equal
// the reference except in rows whose boundary is ambiguous: p lies within
// [AmbiguityTolerance] of the float64 cumulative probability just before or
// at the cut (see [Row.Ambiguous]).
package reference
