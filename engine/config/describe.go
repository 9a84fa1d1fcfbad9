package config

import (
	"fmt"
	"reflect"
	"strings"
)

// describe writes the leaf's value the way the file does, with URL
// credentials left out and strings quoted, so escapes from a hostile
// file reach no terminal.
func (l configLeaf) describe(fc fileConfig) string {
	v := reflect.ValueOf(fc).FieldByIndex(l.index)
	if l.mapKey != "" {
		return describeTable(v.MapIndex(reflect.ValueOf(l.mapKey)))
	}
	return describeValue(v.Elem())
}

func describeValue(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case endpointURL:
		return RedactURL(string(x))
	case toolList:
		return "[" + strings.Join(x, ", ") + "]"
	}
	if v.Kind() == reflect.String {
		return fmt.Sprintf("%q", v.String())
	}
	return fmt.Sprint(v.Interface())
}

// describeTable writes a [models."<id>"] table's keys on one line.
func describeTable(v reflect.Value) string {
	var parts []string
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsNil() {
			parts = append(parts, v.Type().Field(i).Tag.Get("toml")+" = "+describeValue(f.Elem()))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
