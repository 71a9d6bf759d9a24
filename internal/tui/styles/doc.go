// Package styles holds every colour and text style of the live view, for a
// dark and a light terminal, and a plain set for NO_COLOR that relies on
// glyphs and font weight instead of colour. Components take them from
// common.Common and never build colours inline (soft-serve pkg/ui/styles).
package styles
