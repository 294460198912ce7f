//! The APIs a model call can be sent to.

use serde::{Deserialize, Serialize};

/// The API a model call is sent to, in its wire shape.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Deserialize,
    Serialize,
    clap::ValueEnum,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Provider {
    /// OpenAI Chat Completions.
    Chat,
    /// OpenAI Responses.
    Responses,
    /// Anthropic Messages.
    Anthropic,
}

impl Provider {
    pub const ALL: [Provider; 3] = [Provider::Chat, Provider::Responses, Provider::Anthropic];

    /// The name a scenario's `provider`, `--provider` and the JSONL use.
    pub fn code(self) -> &'static str {
        self.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantNames as _;

    #[test]
    fn provider_names_agree_in_serde_strum_and_clap() {
        use clap::ValueEnum as _;
        for (p, name) in Provider::ALL.iter().zip(Provider::VARIANTS) {
            assert_eq!(p.code(), *name);
            assert_eq!(serde_json::to_value(p).unwrap(), serde_json::json!(name));
            let value = p.to_possible_value().unwrap();
            assert_eq!(value.get_name(), *name);
        }
    }
}
