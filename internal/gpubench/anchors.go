package gpubench

// AnchorShape is a (batch, vocab) pair of the peers' H200 anchor table
// (shared research, anchors-h200.md).
type AnchorShape struct{ Batch, Vocab int }

// AnchorShapes are the shapes of the anchor table, in its order.
var AnchorShapes = []AnchorShape{
	{1, 128256}, {1, 262208}, {8, 128256}, {8, 262208}, {64, 128256}, {64, 262208},
	{256, 128256}, {256, 262208}, {1024, 128256}, {1024, 262208}, {256, 151936}, {256, 201088},
}
