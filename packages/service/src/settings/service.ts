import { Context, Effect, Layer } from "effect";
import { useLogSettings } from "../log.ts";
import { SettingError } from "../run-main.ts";
import type { SettingsValues } from "./registry.ts";
import { InvalidSetting, settingsFromEnv } from "./resolve.ts";

/**
 * The settings of this process, resolved once at start-up (command line > environment > config
 * file > defaults) and handed to every app through this service.
 */
export class Settings extends Context.Service<Settings, SettingsValues>()("service/Settings") {
  /**
   * Settings given as they are (the command line resolved them, or a test). The logger writes as
   * they say from when the layer is made.
   */
  static readonly layer = (values: SettingsValues) =>
    Layer.sync(Settings, () => {
      useLogSettings(values);
      return values;
    });

  /** An app started as its own process: its settings from the environment over the defaults. */
  static readonly fromEnv = Layer.effect(
    Settings,
    Effect.try({
      try: () => {
        const values = settingsFromEnv(process.env);
        useLogSettings(values);
        return values;
      },
      catch: (e) => (e instanceof InvalidSetting ? new SettingError(e.message) : e),
    }),
  );
}
