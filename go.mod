module github.com/qrita-project/qrita

go 1.26
