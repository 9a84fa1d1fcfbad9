package config

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/BurntSushi/toml"
)

// maxKeyNotices is how many dropped keys of a project file are named one
// by one; the rest are counted, so a hostile file cannot flood the start.
const maxKeyNotices = 5

// parseProjectConfig decodes a repository's .baton/config.toml. A
// repository must never keep baton from starting, so nothing here fails:
// a key with a wrong value, out of range or unknown is dropped with a
// notice naming the file and the key, and a file that does not parse is
// ignored whole with a notice. The text is parsed once; each key is then
// decoded on its own from what was parsed, so a wrong key costs nothing
// more than a right one.
func parseProjectConfig(doc, display string, themes []string) (fileConfig, []string) {
	var fc fileConfig
	var top map[string]toml.Primitive
	md, err := toml.Decode(doc, &top)
	if err != nil {
		return fc, []string{fmt.Sprintf("%s: %s; the file is ignored", display, decodeMessage(md, err))}
	}
	d := projectDecoder{md: md, display: display}
	d.table(reflect.ValueOf(&fc).Elem(), top, nil)
	if fc.Theme != nil {
		if err := checkTheme(*fc.Theme, themes); err != nil {
			fc.Theme = nil
			d.drop(toml.Key{"theme"}, err)
		}
	}
	for _, err := range dropAboveMaxima(&fc) {
		d.note(err.Error())
	}
	if more := d.dropped - maxKeyNotices; more == 1 {
		d.notices = append(d.notices, display+": 1 more key ignored")
	} else if more > 1 {
		d.notices = append(d.notices, fmt.Sprintf("%s: %d more keys ignored", display, more))
	}
	fc.hasAliases = d.hasAliases
	return fc, d.notices
}

// projectDecoder decodes a parsed project file key by key into the
// fields of a fileConfig, dropping what does not fit.
type projectDecoder struct {
	md         toml.MetaData
	display    string
	notices    []string
	dropped    int
	hasAliases bool
}

// unmarshaler is the interface of the leaf types, which check their own
// values.
func unmarshaler() reflect.Type { return reflect.TypeFor[toml.Unmarshaler]() }

// table decodes the keys of a table into dst, a struct whose fields name
// their keys in toml tags.
func (d *projectDecoder) table(dst reflect.Value, keys map[string]toml.Primitive, at toml.Key) {
	fields := map[string]reflect.Value{}
	for i := range dst.NumField() {
		if tag := dst.Type().Field(i).Tag.Get("toml"); tag != "" {
			fields[tag] = dst.Field(i)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(keys)) {
		key := append(at[:len(at):len(at)], name)
		field, ok := fields[name]
		if !ok {
			d.unknownKey(key)
			continue
		}
		d.value(field, keys[name], key)
	}
}

// value decodes one key's value into dst: a leaf whole, a table or a map
// of tables key by key.
func (d *projectDecoder) value(dst reflect.Value, prim toml.Primitive, key toml.Key) {
	t := dst.Type()
	switch {
	case t.Kind() == reflect.Struct && !reflect.PointerTo(t).Implements(unmarshaler()):
		if keys, ok := d.subkeys(prim, key, "a table (["+key.String()+"])"); ok {
			d.table(dst, keys, key)
		}
	case t.Kind() == reflect.Map:
		keys, ok := d.subkeys(prim, key, "a table (["+key.String()+"])")
		if !ok {
			return
		}
		if dst.IsNil() {
			dst.Set(reflect.MakeMap(t))
		}
		for _, name := range slices.Sorted(maps.Keys(keys)) {
			if len(key) == 1 && key[0] == "models" && name == aliasesKey {
				// No repository may choose aliases (refuseProjectKeys).
				d.hasAliases = true
				continue
			}
			entry := reflect.New(t.Elem()).Elem()
			d.value(entry, keys[name], append(key[:len(key):len(key)], name))
			if !entry.IsZero() {
				dst.SetMapIndex(reflect.ValueOf(name), entry)
			}
		}
	default:
		fresh := reflect.New(t)
		if err := d.md.PrimitiveDecode(prim, fresh.Interface()); err != nil {
			d.drop(key, err)
			return
		}
		dst.Set(fresh.Elem())
	}
}

// subkeys takes a table's keys apart; a value that is not a table is
// dropped with a notice saying what was expected.
func (d *projectDecoder) subkeys(prim toml.Primitive, key toml.Key, want string) (map[string]toml.Primitive, bool) {
	var got any
	_ = d.md.PrimitiveDecode(prim, &got)
	var keys map[string]toml.Primitive
	if _, isTable := got.(map[string]any); !isTable || d.md.PrimitiveDecode(prim, &keys) != nil {
		d.drop(key, valueError{want, got})
		return nil, false
	}
	return keys, true
}

// drop notes a key left out for its value.
func (d *projectDecoder) drop(key toml.Key, err error) {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		err = errors.New(pe.Message)
	}
	d.note(fmt.Sprintf("%s: %v", key, err))
}

// unknownKey notes a key baton does not know.
func (d *projectDecoder) unknownKey(key toml.Key) { d.note(unknownKeyMessage(key)) }

// note words a dropped key for the person, the first few in full.
func (d *projectDecoder) note(why string) {
	d.dropped++
	if d.dropped <= maxKeyNotices {
		d.notices = append(d.notices, fmt.Sprintf("%s: %s; ignored", d.display, why))
	}
}
