//go:build cuda && hip

package native

// Building with both tags is a mistake: this line fails to compile on purpose.
const _ = cudaAndHipTagsAreMutuallyExclusive
