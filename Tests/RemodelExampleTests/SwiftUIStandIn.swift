#if !canImport(SwiftUI)
    // SwiftUI is not on Linux. These declare the part of its API that the articles' views use,
    // with SwiftUI's names and signatures, so that the views are type-checked and their bodies
    // evaluated here (containers call their content at once, `ForEach` once per element); on
    // Apple platforms the same views compile against SwiftUI itself.
    import Foundation

    @MainActor protocol View {
        associatedtype Body: View
        @ViewBuilder var body: Body { get }
    }

    /// What every stand-in view's `body` is: nothing further to draw.
    struct Drawn: View {
        var body: Drawn { self }
    }

    @resultBuilder @MainActor enum ViewBuilder {
        static func buildExpression(_ view: some View) -> any View { view }
        static func buildBlock(_ views: any View...) -> Drawn { Drawn() }
        static func buildOptional(_ view: Drawn?) -> Drawn { Drawn() }
        static func buildEither(first: Drawn) -> Drawn { first }
        static func buildEither(second: Drawn) -> Drawn { second }
    }

    @propertyWrapper struct State<Value> {
        private final class Box {
            var value: Value
            init(_ value: Value) { self.value = value }
        }
        private let box: Box
        init(initialValue value: Value) { box = Box(value) }
        init(wrappedValue value: Value) { box = Box(value) }
        var wrappedValue: Value {
            get { box.value }
            nonmutating set { box.value = newValue }
        }
        var projectedValue: Binding<Value> { Binding(get: { box.value }, set: { box.value = $0 }) }
    }

    struct Binding<Value> {
        let get: () -> Value
        let set: (Value) -> Void
    }

    enum HorizontalAlignment { case leading, center, trailing }

    struct HierarchicalShapeStyle {
        static let primary = HierarchicalShapeStyle()
        static let secondary = HierarchicalShapeStyle()
    }

    struct Text: View {
        enum DateStyle { case date, time, relative }
        init(_ content: String) {}
        init(_ date: Date, style: DateStyle) {}
        var body: Drawn { Drawn() }
    }

    struct Button: View {
        init(_ title: String, action: @escaping () -> Void) {}
        var body: Drawn { Drawn() }
    }

    struct VStack: View {
        init(alignment: HorizontalAlignment = .center, @ViewBuilder content: () -> Drawn) { _ = content() }
        var body: Drawn { Drawn() }
    }

    struct List: View {
        init(@ViewBuilder content: () -> Drawn) { _ = content() }
        var body: Drawn { Drawn() }
    }

    struct NavigationStack: View {
        init(@ViewBuilder root: () -> Drawn) { _ = root() }
        var body: Drawn { Drawn() }
    }

    struct ForEach<Data: RandomAccessCollection>: View where Data.Element: Identifiable {
        init(_ data: Data, @ViewBuilder content: (Data.Element) -> Drawn) { for element in data { _ = content(element) } }
        func onDelete(perform action: ((IndexSet) -> Void)?) -> Drawn { Drawn() }
        var body: Drawn { Drawn() }
    }

    extension View {
        func foregroundStyle(_ style: HierarchicalShapeStyle) -> Drawn { Drawn() }
        func searchable(text: Binding<String>) -> Drawn { Drawn() }
        func onChange<V: Equatable>(of value: V, _ action: @escaping (V, V) -> Void) -> Drawn { Drawn() }
        func overlay(@ViewBuilder content: () -> Drawn) -> Drawn { content() }
        func navigationTitle(_ title: String) -> Drawn { Drawn() }
        func toolbar(@ViewBuilder content: () -> Drawn) -> Drawn { content() }
    }
#endif
