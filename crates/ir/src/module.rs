//! A module: struct declarations and functions.

use crate::entities::{FuncId, StructId};
use crate::function::Function;
use crate::types::{StructDef, StructLayout, Type};
use cranelift_entity::PrimaryMap;

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

    /// The C layout of a struct.
    pub fn layout(&self, id: StructId) -> StructLayout {
        self.structs[id].layout()
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
    /// fields only. Returns the reason when it cannot.
    pub fn packable(&self, id: StructId) -> Result<(), String> {
        let def = &self.structs[id];
        let size = def.layout().size;
        if size > 8 {
            return Err(format!(
                "struct `{}` is {size} bytes, more than the 8 that fit one integer",
                def.name
            ));
        }
        if let Some(f) = def.fields.iter().find(|f| f.ty.as_scalar().is_none()) {
            return Err(format!(
                "struct `{}` has field `{}` that is not an integer",
                def.name, f.name
            ));
        }
        Ok(())
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
