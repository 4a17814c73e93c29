//! The type system of the IR: scalars, named structs with C layout, and vec handles.

use crate::entities::StructId;
use std::fmt;

/// A scalar type. `bool` is one byte holding 0 or 1.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum ScalarType {
    I8,
    I16,
    I32,
    I64,
    Bool,
}

impl ScalarType {
    pub const ALL: [ScalarType; 5] = [
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::Bool,
    ];

    /// Size in bytes (also the alignment).
    pub fn size(self) -> u32 {
        match self {
            ScalarType::I8 | ScalarType::Bool => 1,
            ScalarType::I16 => 2,
            ScalarType::I32 => 4,
            ScalarType::I64 => 8,
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            ScalarType::Bool => 1,
            other => other.size() * 8,
        }
    }

    /// True for the integer types (everything but `bool`).
    pub fn is_int(self) -> bool {
        self != ScalarType::Bool
    }

    /// Wrap `value` to this type: sign-extend from the type's width (bool: 0 or 1).
    pub fn wrap(self, value: i64) -> i64 {
        match self {
            ScalarType::I8 => value as i8 as i64,
            ScalarType::I16 => value as i16 as i64,
            ScalarType::I32 => value as i32 as i64,
            ScalarType::I64 => value,
            ScalarType::Bool => value & 1,
        }
    }

    /// The text name (`i64`, `bool`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ScalarType::I8 => "i8",
            ScalarType::I16 => "i16",
            ScalarType::I32 => "i32",
            ScalarType::I64 => "i64",
            ScalarType::Bool => "bool",
        }
    }

    /// Parse a text name.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "i8" => ScalarType::I8,
            "i16" => ScalarType::I16,
            "i32" => ScalarType::I32,
            "i64" => ScalarType::I64,
            "bool" => ScalarType::Bool,
            _ => return None,
        })
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The element type of a vec: a scalar or a struct.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum ElemType {
    Scalar(ScalarType),
    Struct(StructId),
}

impl ElemType {
    /// The element type as a value type.
    pub fn to_type(self) -> Type {
        match self {
            ElemType::Scalar(s) => Type::Scalar(s),
            ElemType::Struct(s) => Type::Struct(s),
        }
    }
}

/// The type of a local, a parameter, a struct field or a return value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Type {
    Scalar(ScalarType),
    Struct(StructId),
    /// A handle to a growable vector (a pointer to the runtime header `{ptr, len, cap}`).
    Vec(ElemType),
}

impl Type {
    pub const I8: Type = Type::Scalar(ScalarType::I8);
    pub const I16: Type = Type::Scalar(ScalarType::I16);
    pub const I32: Type = Type::Scalar(ScalarType::I32);
    pub const I64: Type = Type::Scalar(ScalarType::I64);
    pub const BOOL: Type = Type::Scalar(ScalarType::Bool);

    /// `vec<elem>`.
    pub fn vec_of(elem: Type) -> Option<Type> {
        match elem {
            Type::Scalar(s) => Some(Type::Vec(ElemType::Scalar(s))),
            Type::Struct(s) => Some(Type::Vec(ElemType::Struct(s))),
            Type::Vec(_) => None,
        }
    }

    /// The scalar type, if this is one.
    pub fn as_scalar(self) -> Option<ScalarType> {
        match self {
            Type::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The integer scalar type, if this is one (not bool).
    pub fn as_int(self) -> Option<ScalarType> {
        self.as_scalar().filter(|s| s.is_int())
    }

    /// The struct id, if this is a struct.
    pub fn as_struct(self) -> Option<StructId> {
        match self {
            Type::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// The element type, if this is a vec.
    pub fn as_vec(self) -> Option<ElemType> {
        match self {
            Type::Vec(e) => Some(e),
            _ => None,
        }
    }
}

/// One field of a struct.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FieldDef {
    pub name: String,
    pub ty: Type,
}

/// Fields up to which a struct's field names are compared one by one ([`StructDef::field_index`];
/// the parser's duplicate check). Past it the parser (by symbol) and the builder (by name) look
/// names up in a map, so a struct of thousands of fields costs nothing per access.
pub(crate) const FIELD_SCAN: usize = 16;

/// A named struct declaration. Fields are scalars (the verifier refuses any other type); layout
/// is C layout.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StructDef {
    pub name: String,
    pub fields: Vec<FieldDef>,
    pub loc: crate::Loc,
}

/// The C layout of a struct: natural alignment, fields in declaration order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StructLayout {
    pub size: u32,
    pub align: u32,
    /// Byte offset of each field.
    pub offsets: Vec<u32>,
}

/// Size and alignment of a field type that is not a struct (scalars and vec handles).
pub fn field_size(ty: Type) -> u32 {
    match ty {
        Type::Scalar(s) => s.size(),
        Type::Vec(_) => 8,
        // Structs do not nest; the verifier rejects them. Treat as pointer-sized.
        Type::Struct(_) => 8,
    }
}

impl StructDef {
    /// The size of this struct in bytes, as [`StructDef::layout`] computes it, without
    /// building the offsets.
    pub fn size(&self) -> u32 {
        self.place_fields(|_| {}).0
    }

    /// Computes the C layout of this struct.
    pub fn layout(&self) -> StructLayout {
        let mut offsets = Vec::with_capacity(self.fields.len());
        let (size, align) = self.place_fields(|offset| offsets.push(offset));
        StructLayout {
            size,
            align,
            offsets,
        }
    }

    /// Places the fields in C layout (each at the next multiple of its size), handing each
    /// one's offset to `at` in order; returns the struct's size (padded to its alignment) and
    /// alignment.
    fn place_fields(&self, mut at: impl FnMut(u32)) -> (u32, u32) {
        let mut offset = 0u32;
        let mut align = 1u32;
        for field in &self.fields {
            let size = field_size(field.ty);
            align = align.max(size);
            offset = offset.div_ceil(size) * size;
            at(offset);
            offset += size;
        }
        (offset.div_ceil(align) * align, align)
    }

    /// Index of the field called `name` (a scan: callers that look names up in a struct of
    /// more than 16 fields (`FIELD_SCAN`) keep a map instead, as the parser and the builder do).
    pub fn field_index(&self, name: &str) -> Option<u32> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u32)
    }
}
