// House-rule presets on the set-up page: load one (it fills the game and the options), or save
// the options chosen now under a name (GET / POST /api/presets). The shipped presets come
// first; a table's own are marked.
import { $, attempt, clearError, get, h, notify, page, post, t } from "./api.js";

let presets = [];

export const presetName = (preset) => (page.language === "zh-CN" ? preset.name_zh : preset.name);

/** Fill the preset list; `onload(preset)` is called when one is chosen. */
export async function startPresets(onload, current) {
  const select = $("preset");
  select.addEventListener("change", () => {
    const preset = presets.find((p) => p.key === select.value);
    if (preset) {
      onload(preset);
      notify(t("preset_loaded", { name: presetName(preset) }));
    }
  });
  $("save-preset").addEventListener("click", () => save(current()));
  await refresh();
}

async function refresh(selected = "") {
  const answer = await attempt(() => get("/api/presets"));
  if (!answer) return;
  presets = answer.presets;
  const entries = presets.map((preset) =>
    h(
      "option",
      { value: preset.key, selected: preset.key === selected, "data-game": preset.game },
      preset.shipped ? presetName(preset) : `${presetName(preset)} (${t("preset_own")})`,
    ),
  );
  $("preset").replaceChildren(h("option", { value: "" }, t("preset_choose")), ...entries);
}

/** Save {game, options} under the typed name; a refusal (a conflict, a shipped name) is shown. */
async function save({ game, options, onrefused }) {
  const input = $("preset-name");
  const name = input.value.trim();
  if (!name) {
    input.focus();
    return;
  }
  try {
    const answer = await post("/api/presets", { name, game, options });
    input.value = "";
    clearError();
    await refresh(answer.preset.key);
    notify(t("preset_saved", { name: answer.preset.name }));
  } catch (error) {
    onrefused(error);
  }
}
