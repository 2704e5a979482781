package reference_test

import (
	"fmt"

	"github.com/qrita-project/qrita/reference"
)

func ExampleTopKTopP() {
	// Two rows of five logits. Row 0: top-k=2 over three tied 2.0s keeps
	// the two with the lowest indices. Row 1: top-p=0.5 keeps the shortest
	// prefix whose probability reaches 0.5 (3.0 alone has 0.46).
	logits := []float32{
		2.0, 1.0, 2.0, 2.0, -1,
		0.0, 3.0, 1.0, 2.9, 0.5,
	}
	k := []int32{2, 0}
	p := []float32{1, 0.5}
	if err := reference.TopKTopP(logits, 2, 5, k, p); err != nil {
		panic(err)
	}
	fmt.Println(logits[:5])
	fmt.Println(logits[5:])
	// Output:
	// [2 -Inf 2 -Inf -Inf]
	// [-Inf 3 -Inf 2.9 -Inf]
}
