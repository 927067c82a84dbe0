import { options, render } from "preact";
import { App } from "./app.js";
import { installInertBidi } from "./display-text.js";
import "./styles.css";

installInertBidi(options);
render(<App />, document.getElementById("app")!);
