#!/bin/bash
# CI job for gin (GOPATH mode, Debian's Go sources): vet, staticcheck, verbose tests with coverage.
# Every step runs; the job fails if any step failed.
set -x
status=0
go version
go vet ./... || status=1
go-staticcheck ./... || status=1
go test -v -cover ./... || status=1
exit $status
