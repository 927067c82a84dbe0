import { Component, type ComponentChildren } from "preact";
import { ErrorMessage } from "./error-message.js";

/** A view that throws while rendering shows the error in its place instead of leaving the page blank. */
export class ErrorBoundary extends Component<{ children: ComponentChildren; resetKey: string }, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: "" };

  static override getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidUpdate() {
    // Navigating elsewhere clears the error.
    if (this.state.error && this.state.key !== this.props.resetKey) this.setState({ error: null, key: this.props.resetKey });
  }

  override componentDidMount() {
    this.setState({ key: this.props.resetKey });
  }

  override render() {
    if (this.state.error) return <ErrorMessage error={this.state.error} title="This view failed to render" />;
    return this.props.children;
  }
}
