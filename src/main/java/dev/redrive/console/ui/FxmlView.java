package dev.redrive.console.ui;

import javafx.scene.Parent;

import java.util.function.Consumer;

/**
 * A view laid out by an FXML file whose controller it is. Loading one always goes the same way: the file is loaded,
 * its controller gets the root node and the view model it shows, then what else it needs, and only then binds its
 * parts to the model (binding needs all of them).
 *
 * @param <M> the view model the view shows and acts on
 */
public abstract class FxmlView<M> {
    /** What the view shows and acts on; set before {@link #bind()} runs. */
    protected M model;
    private Parent root;

    /** Loads {@code resource}, whose controller is a {@code V}, for {@code model}. */
    protected static <M, V extends FxmlView<M>> V load(String resource, M model) {
        return load(resource, model, view -> { });
    }

    /**
     * Loads {@code resource}, whose controller is a {@code V}, for {@code model}; {@code needs} hands the view what it
     * needs besides its model before it binds.
     */
    protected static <M, V extends FxmlView<M>> V load(String resource, M model, Consumer<V> needs) {
        Fxml.Loaded<V> loaded = Fxml.load(resource);
        V view = loaded.controller();
        FxmlView<M> loadedView = view; // the private fields are not members of V
        loadedView.root = loaded.root();
        loadedView.model = model;
        needs.accept(view);
        view.bind();
        return view;
    }

    /** Sets the view's parts up and binds them to {@link #model}. */
    protected abstract void bind();

    public Parent root() {
        return root;
    }
}
