//! What the readers' `Deserialize` structs share: a field read as the
//! format says, or as absent when it holds another type.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

/// A response's `usage` as Anthropic Messages and OpenAI Responses both
/// name it: the tokens read and written. (Chat Completions says
/// `prompt_tokens` and `completion_tokens`: chat.rs.)
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Usage {
    pub input_tokens: Lenient<u64>,
    pub output_tokens: Lenient<u64>,
}

/// A value of the type the format says, or None: the readers have always
/// read a field of another type as absent, never as an error.
#[derive(Debug)]
pub struct Lenient<T>(pub Option<T>);

/// Absent, whether or not `T` has a default.
impl<T> Default for Lenient<T> {
    fn default() -> Self {
        Lenient(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged, bound = "T: Deserialize<'de>")]
        enum Or<T> {
            Is(T),
            Other(IgnoredAny),
        }
        Ok(Lenient(match Or::<T>::deserialize(d)? {
            Or::Is(t) => Some(t),
            Or::Other(_) => None,
        }))
    }
}

/// A field that is there, whatever it holds (`null` too), and its value
/// read as `T`: `there` is false only when the key is missing.
#[derive(Debug, Default)]
pub struct Present<T> {
    pub there: bool,
    pub value: T,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Present<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Present {
            there: true,
            value: T::deserialize(d)?,
        })
    }
}

/// An object of the shape `T`, or None when the value is anything else.
/// An array too: serde reads a struct from an array by position, and the
/// readers have always read the fields of an array as absent.
#[derive(Debug, Default)]
pub struct Object<T>(pub Option<T>);

impl<T> Object<T> {
    /// `v` read as an object of the shape `T`; the default shape when it is
    /// not an object.
    pub fn of<'a>(v: &'a serde_json::Value) -> T
    where
        T: Deserialize<'a> + Default,
    {
        // Read from the object itself, not from a copy made to try it as
        // another type first (as a field's `Object` does): a line's fields
        // are read without copying its content. A `Lenient` always reads:
        // no error to handle.
        match v {
            serde_json::Value::Object(_) => T::deserialize(v).unwrap_or_default(),
            _ => T::default(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let read = Lenient::<MapOnly<T>>::deserialize(d)?;
        Ok(Object(read.0.map(|m| m.0)))
    }
}

/// `T` read from a map only (a sequence is an error, for `Lenient`).
struct MapOnly<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for MapOnly<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Map<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Map<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(Map(PhantomData)).map(MapOnly)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct Call<'a> {
        #[serde(borrow)]
        id: Lenient<&'a str>,
        tokens: Lenient<u64>,
        #[serde(borrow)]
        function: Object<Name<'a>>,
    }

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct Name<'a> {
        #[serde(borrow)]
        name: Lenient<&'a str>,
    }

    #[test]
    fn fields_of_the_format_read_and_others_are_absent() {
        let v = json!({"id": "call_1", "tokens": 7, "function": {"name": "f"}, "extra": [1]});
        let c = Object::<Call>::of(&v);
        assert_eq!(c.id.0, Some("call_1"));
        assert_eq!(c.tokens.0, Some(7));
        assert_eq!(c.function.0.unwrap().name.0, Some("f"));
        // Another type: absent, and the other fields still read.
        let v = json!({"id": 12, "tokens": "7", "function": "f"});
        let c = Object::<Call>::of(&v);
        assert_eq!((c.id.0, c.tokens.0), (None, None));
        assert!(c.function.0.is_none());
        let v = json!({"id": "a", "tokens": -1, "function": {"name": ["f"]}});
        let c = Object::<Call>::of(&v);
        assert_eq!((c.id.0, c.tokens.0), (Some("a"), None));
        assert_eq!(c.function.0.unwrap().name.0, None);
    }

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct Item<'a> {
        #[serde(borrow)]
        role: Present<Lenient<&'a str>>,
    }

    #[test]
    fn a_present_field_is_there_even_when_null_or_of_another_type() {
        let there = |v: serde_json::Value| {
            let i = Object::<Item>::of(&v);
            (i.role.there, i.role.value.0.map(str::to_string))
        };
        assert_eq!(there(json!({"role": "user"})), (true, Some("user".into())));
        assert_eq!(there(json!({"role": null})), (true, None));
        assert_eq!(there(json!({"role": 3})), (true, None));
        assert_eq!(there(json!({"content": "x"})), (false, None));
        assert_eq!(there(json!(["role"])), (false, None));
    }

    #[test]
    fn an_array_is_no_object_not_its_fields_by_position() {
        let v = json!(["call_1", 7, {"name": "f"}]);
        let c = Object::<Call>::of(&v);
        assert_eq!((c.id.0, c.tokens.0), (None, None));
        assert!(c.function.0.is_none());
        let v = json!({"id": "a", "function": ["f"]});
        assert!(Object::<Call>::of(&v).function.0.is_none());
        for v in [json!(null), json!("call_1"), json!(3)] {
            assert!(Object::<Call>::of(&v).id.0.is_none(), "{v}");
        }
    }
}
