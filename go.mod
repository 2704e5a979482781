module github.com/qrita-project/qrita

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
