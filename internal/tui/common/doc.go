// Package common holds what every part of the live view shares: the
// Common context (size, styles, key map, clock), the Component interface
// the pages implement, the typed messages children send each other, and
// the Source interface the data comes from (soft-serve pkg/ui/common).
package common
