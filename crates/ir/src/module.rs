//! A module: struct declarations and functions.

use crate::entities::{FuncId, StructId};
use crate::function::Function;
use crate::types::{StructDef, StructLayout, Type};
use cranelift_entity::PrimaryMap;

/// Why a struct cannot be held as one 64-bit integer ([`Module::packing`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NotPackable {
    /// It is more than 8 bytes.
    TooLarge { size: u32 },
    /// Its field of this index is not an integer (or bool).
    NonInteger { field: usize },
}

impl NotPackable {
    /// The reason as [`Module::packable`] words it, for the struct `def` it is about.
    pub fn describe(self, def: &StructDef) -> String {
        match self {
            NotPackable::TooLarge { size } => format!(
                "struct `{}` is {size} bytes, more than the 8 that fit one integer",
                def.name
            ),
            NotPackable::NonInteger { field } => format!(
                "struct `{}` has field `{}` that is not an integer",
                def.name, def.fields[field].name
            ),
        }
    }
}

/// A compilation unit: named structs and functions that may call each other.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Module {
    pub structs: PrimaryMap<StructId, StructDef>,
    pub funcs: PrimaryMap<FuncId, Function>,
}

impl Module {
    pub fn new() -> Module {
        Module::default()
    }

    /// Looks up a function by name.
    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.funcs
            .iter()
            .find(|(_, f)| f.name == name)
            .map(|(id, _)| id)
    }

    /// Looks up a struct by name.
    pub fn struct_by_name(&self, name: &str) -> Option<StructId> {
        self.structs
            .iter()
            .find(|(_, s)| s.name == name)
            .map(|(id, _)| id)
    }

    /// The C layout of a struct (computed on each call: a pass over its fields).
    pub fn layout(&self, id: StructId) -> StructLayout {
        self.structs[id].layout()
    }

    /// The C layout of every struct, by struct index, computed once: what a consumer that
    /// looks layouts up per access keeps (the JIT's lowering, the interpreter).
    pub fn struct_layouts(&self) -> Vec<StructLayout> {
        self.structs.values().map(StructDef::layout).collect()
    }

    /// Size in bytes of a value of type `ty` (vec handles are pointers).
    pub fn size_of(&self, ty: Type) -> u32 {
        match ty {
            Type::Scalar(s) => s.size(),
            Type::Vec(_) => 8,
            Type::Struct(s) => self.layout(s).size,
        }
    }

    /// Alignment in bytes of a value of type `ty`.
    pub fn align_of(&self, ty: Type) -> u32 {
        match ty {
            Type::Scalar(s) => s.size(),
            Type::Vec(_) => 8,
            Type::Struct(s) => self.layout(s).align,
        }
    }

    /// Whether a struct can be held as one 64-bit integer: at most 8 bytes, integer (or bool)
    /// fields only. Returns the reason when it cannot, as text ([`Module::packing`] is the
    /// same test without formatting anything).
    pub fn packable(&self, id: StructId) -> Result<(), String> {
        self.packing(id)
            .map_err(|why| why.describe(&self.structs[id]))
    }

    /// [`Module::packable`]'s test, allocating nothing: the passes ask it of every struct
    /// local, and most of them never show the reason.
    pub fn packing(&self, id: StructId) -> Result<(), NotPackable> {
        let def = &self.structs[id];
        let size = def.size();
        if size > 8 {
            return Err(NotPackable::TooLarge { size });
        }
        match def.fields.iter().position(|f| f.ty.as_scalar().is_none()) {
            Some(field) => Err(NotPackable::NonInteger { field }),
            None => Ok(()),
        }
    }

    /// Renders a type in the text syntax (`i64`, `S8`, `vec<S8>`).
    pub fn type_name(&self, ty: Type) -> String {
        match ty {
            Type::Scalar(s) => s.name().to_string(),
            Type::Struct(s) => self.structs[s].name.clone(),
            Type::Vec(e) => format!("vec<{}>", self.type_name(e.to_type())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ElemType, FieldDef, ScalarType};
    use crate::Loc;

    fn def(fields: &[Type]) -> StructDef {
        StructDef {
            name: "S".into(),
            fields: fields
                .iter()
                .enumerate()
                .map(|(k, &ty)| FieldDef {
                    name: format!("f{k}"),
                    ty,
                })
                .collect(),
            loc: Loc::UNKNOWN,
        }
    }

    #[test]
    fn the_size_alone_is_the_layouts_size() {
        let [i8, i16, i32, i64, b] = [
            ScalarType::I8,
            ScalarType::I16,
            ScalarType::I32,
            ScalarType::I64,
            ScalarType::Bool,
        ]
        .map(Type::Scalar);
        let shapes: &[&[Type]] = &[
            &[],
            &[i8],
            &[b, i64],
            &[i64, b],
            &[i8, i16, i8],
            &[i32, i8, i16, i8],
            &[i16, i64, i8],
            &[i64; 16],
            &[i8, Type::Vec(ElemType::Scalar(ScalarType::I64))],
        ];
        for fields in shapes {
            let d = def(fields);
            assert_eq!(d.size(), d.layout().size, "{fields:?}");
        }
    }

    #[test]
    fn packing_gives_the_reason_packable_words() {
        let mut m = Module::new();
        let small = m
            .structs
            .push(def(&[Type::I32, Type::Scalar(ScalarType::I16)]));
        let large = m.structs.push(def(&[Type::I64, Type::I64]));
        // A vec handle is 8 bytes: small enough, but not an integer.
        let handle = m
            .structs
            .push(def(&[Type::Vec(ElemType::Scalar(ScalarType::I8))]));
        assert_eq!(m.packing(small), Ok(()));
        assert_eq!(m.packable(small), Ok(()));
        assert_eq!(m.packing(large), Err(NotPackable::TooLarge { size: 16 }));
        assert_eq!(
            m.packable(large).unwrap_err(),
            "struct `S` is 16 bytes, more than the 8 that fit one integer"
        );
        assert_eq!(m.packing(handle), Err(NotPackable::NonInteger { field: 0 }));
        assert_eq!(
            m.packable(handle).unwrap_err(),
            "struct `S` has field `f0` that is not an integer"
        );
    }
}
